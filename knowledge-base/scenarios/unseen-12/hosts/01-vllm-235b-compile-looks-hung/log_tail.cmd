tail -n 60 /var/log/vllm/qwen3-235b.log
