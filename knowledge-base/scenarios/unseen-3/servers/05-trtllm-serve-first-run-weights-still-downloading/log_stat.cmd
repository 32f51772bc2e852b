stat -c '%y %s' /srv/trtllm/logs/llama70b.log
