tail -n 60 /var/log/vllm/gemma.log
