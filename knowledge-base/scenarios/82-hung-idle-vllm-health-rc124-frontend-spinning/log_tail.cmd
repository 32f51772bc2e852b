tail -n 60 /var/log/vllm/scout.log
