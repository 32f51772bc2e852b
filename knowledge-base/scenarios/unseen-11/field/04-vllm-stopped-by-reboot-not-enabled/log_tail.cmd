tail -n 60 /var/log/vllm/mistral.log
