tail -n 60 /srv/trtllm/logs/llama70b.log
