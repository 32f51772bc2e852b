tail -n 60 /var/log/vllm/service.log
