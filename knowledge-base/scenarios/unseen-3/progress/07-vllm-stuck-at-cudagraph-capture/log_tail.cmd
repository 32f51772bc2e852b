tail -n 60 /home/lab/logs/vllm-qwen3-14b.log
