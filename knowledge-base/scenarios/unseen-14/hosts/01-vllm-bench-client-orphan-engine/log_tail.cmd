tail -n 60 /data/logs/vllm-qwen32b.log
