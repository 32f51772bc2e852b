tail -n 60 /var/log/vllm/qwen25-14b.log
