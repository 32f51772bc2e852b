tail -n 60 /var/log/vllm/vllm-8001.log
