tail -n 60 /home/priya/logs/vllm-qwen7b.log
