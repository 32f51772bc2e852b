tail -n 60 /var/log/vllm/qwen-vl.log
