tail -n 60 /logs/vllm.log
