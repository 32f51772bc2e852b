systemctl status vllm-gemma.service --no-pager -n 0
