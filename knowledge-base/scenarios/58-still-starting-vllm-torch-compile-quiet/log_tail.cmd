tail -n 60 /srv/vllm/qwen3-30b-a3b.log
