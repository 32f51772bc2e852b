tail -n 60 /var/log/vllm/vllm.log
