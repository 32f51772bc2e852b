tail -n 60 /var/log/trtllm/serve.log
