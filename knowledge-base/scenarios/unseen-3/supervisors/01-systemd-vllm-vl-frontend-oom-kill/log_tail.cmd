tail -n 60 /var/log/vllm/vl.log
