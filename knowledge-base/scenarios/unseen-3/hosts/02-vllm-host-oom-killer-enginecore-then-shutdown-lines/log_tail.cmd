tail -n 60 /home/mlops/logs/vllm-llama70b.log
