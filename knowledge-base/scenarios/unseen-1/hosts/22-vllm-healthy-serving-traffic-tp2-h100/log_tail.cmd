tail -n 60 /data/vllm/logs/llama70b-fp8.log
