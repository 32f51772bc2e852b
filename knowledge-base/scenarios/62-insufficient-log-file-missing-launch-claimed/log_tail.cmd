tail -n 60 /var/log/vllm/qwen3-coder.log
