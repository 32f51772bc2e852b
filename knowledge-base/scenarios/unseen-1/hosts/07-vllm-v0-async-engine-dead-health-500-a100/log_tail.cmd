tail -n 60 /workspace/logs/vllm.log
