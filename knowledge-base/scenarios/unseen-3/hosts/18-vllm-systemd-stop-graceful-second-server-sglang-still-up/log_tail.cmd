tail -n 60 /var/log/vllm/qwen7b.log
