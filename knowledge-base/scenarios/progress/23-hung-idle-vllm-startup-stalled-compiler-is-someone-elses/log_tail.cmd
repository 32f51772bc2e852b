tail -n 60 /srv/vllm-logs/vllm-qwen3-235b.log
