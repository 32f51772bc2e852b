tail -n 60 /var/log/vllm/qwen3-32b.log
