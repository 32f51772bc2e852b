stat -c '%y %s' /var/log/trtllm/serve-8000.log
