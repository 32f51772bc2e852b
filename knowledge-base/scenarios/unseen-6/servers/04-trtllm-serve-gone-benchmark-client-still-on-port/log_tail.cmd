tail -n 60 /var/log/trtllm/serve-8000.log
