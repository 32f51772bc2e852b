tail -n 60 /var/log/vllm/llama33-70b-tp4.log
