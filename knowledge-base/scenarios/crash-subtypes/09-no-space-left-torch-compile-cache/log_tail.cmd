tail -n 60 /home/ml/vllm.log
