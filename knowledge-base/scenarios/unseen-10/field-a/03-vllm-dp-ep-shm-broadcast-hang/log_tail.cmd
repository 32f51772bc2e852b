tail -n 60 /data/logs/vllm-qwen235-ep.log
