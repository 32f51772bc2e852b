tail -n 60 /home/bkim/logs/vllm-qwen3-30b.log
