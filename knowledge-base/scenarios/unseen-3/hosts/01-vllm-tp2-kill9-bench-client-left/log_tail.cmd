tail -n 60 /srv/vllm/logs/qwen3-14b.log
