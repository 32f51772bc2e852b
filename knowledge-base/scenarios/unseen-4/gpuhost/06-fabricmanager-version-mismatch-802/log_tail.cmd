tail -n 60 /var/log/vllm/qwen235.log
