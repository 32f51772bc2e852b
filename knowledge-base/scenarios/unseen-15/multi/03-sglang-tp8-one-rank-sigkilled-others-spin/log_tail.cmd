tail -n 60 /home/mlops/logs/sglang-qwen3-235b.log
