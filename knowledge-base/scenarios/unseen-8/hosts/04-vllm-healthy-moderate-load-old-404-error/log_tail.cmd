tail -n 60 /srv/vllm/logs/qwen7b.log
