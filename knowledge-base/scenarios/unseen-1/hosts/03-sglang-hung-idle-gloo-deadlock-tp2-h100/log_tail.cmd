tail -n 60 /home/mlops/logs/sglang-llama70b.log
