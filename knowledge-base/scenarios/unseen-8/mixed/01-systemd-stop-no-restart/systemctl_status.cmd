systemctl status vllm-qwen.service --no-pager -l
