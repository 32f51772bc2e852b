tail -n 60 /srv/vllm/deepseek-v3.log
