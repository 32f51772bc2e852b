tail -n 60 /srv/vllm/logs/qwen3-235b.log
