tail -n 60 /workspace/vllm.log
