tail -n 60 /srv/vllm/logs/mistral-small.log
