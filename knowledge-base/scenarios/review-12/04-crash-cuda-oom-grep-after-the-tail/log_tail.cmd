tail -n 5 /var/log/vllm.log
