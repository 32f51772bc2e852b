tail -n 60 /srv/vllm/logs/qwen3-30b.log
