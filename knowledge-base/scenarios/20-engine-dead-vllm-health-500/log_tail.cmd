tail -n 60 /data/vllm/qwen3-30b-a3b.log
