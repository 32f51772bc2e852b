tail -n 60 /var/log/vllm/gpt-oss.log
