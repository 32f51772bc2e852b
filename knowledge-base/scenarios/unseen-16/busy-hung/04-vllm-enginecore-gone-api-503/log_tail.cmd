tail -n 60 /home/mlops/logs/vllm-qwen32b.log
