tail -n 60 /var/log/pods/vllm/qwen3-embed.log
