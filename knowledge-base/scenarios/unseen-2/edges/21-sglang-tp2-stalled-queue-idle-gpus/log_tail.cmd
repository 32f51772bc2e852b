tail -n 60 /home/ml/logs/sglang-qwen3-235b.log
