tail -n 60 /var/log/vllm/qwen14b.log
