tail -n 60 /var/log/vllm/llama70b.log
