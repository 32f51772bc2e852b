tail -n 60 /var/log/vllm/gemma4.log
