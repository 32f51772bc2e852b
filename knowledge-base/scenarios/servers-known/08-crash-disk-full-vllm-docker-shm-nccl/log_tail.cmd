tail -n 60 -- /var/log/vllm/container.log
