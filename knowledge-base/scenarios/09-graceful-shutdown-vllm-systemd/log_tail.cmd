tail -n 60 /var/log/vllm/qwen3-14b.log
