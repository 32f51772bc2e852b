tail -n 60 /var/log/vllm/qwen3-30b.log
