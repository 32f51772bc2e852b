tail -n 60 /home/ml/logs/sglang-qwen3-32b.log
