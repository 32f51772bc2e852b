stat -c '%y %s' /var/log/vllm/llama405b.log
