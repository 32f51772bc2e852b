tail -n 60 /var/log/vllm/llama405b.log
