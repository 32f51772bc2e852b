tail -n 60 /var/log/vllm/dsv4.log
