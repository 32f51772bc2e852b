tail -n 60 /var/log/vllm/serve.log
