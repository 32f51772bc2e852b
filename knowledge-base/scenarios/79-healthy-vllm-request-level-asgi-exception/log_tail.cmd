tail -n 60 /srv/vllm/qwen14b.log
