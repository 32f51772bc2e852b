tail -n 60 /srv/vllm/logs/qwen-coder.log
