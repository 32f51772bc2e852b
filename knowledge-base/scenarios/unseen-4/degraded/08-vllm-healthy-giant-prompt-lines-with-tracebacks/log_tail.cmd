tail -n 60 /var/log/vllm/coder.log
