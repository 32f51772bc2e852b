tail -n 60 /srv/vllm/qwen3-8b.log
