tail -n 60 /var/log/vllm/qwen32b.log
