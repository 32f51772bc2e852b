tail -n 60 /home/mlops/logs/vllm-qwen3-30b.log
