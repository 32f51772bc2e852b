tail -n 60 /srv/vllm/logs/llama-405b.log
