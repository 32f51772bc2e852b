tail -n 60 /var/log/vllm/server.log
