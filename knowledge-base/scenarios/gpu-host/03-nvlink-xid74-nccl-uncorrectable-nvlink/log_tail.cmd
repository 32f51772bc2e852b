tail -n 60 /srv/vllm/qwen3-235b.log
