tail -n 60 /var/log/vllm/qwen72b.log
