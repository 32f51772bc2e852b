tail -n 60 /srv/vllm/logs/serve-qwen.log
