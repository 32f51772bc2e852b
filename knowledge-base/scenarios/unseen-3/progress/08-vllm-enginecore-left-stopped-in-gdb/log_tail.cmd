tail -n 60 /var/log/vllm/gemma3-27b.log
