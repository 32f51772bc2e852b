tail -n 60 /home/ml/serve/vllm-qwen14b.log
