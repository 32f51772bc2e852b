systemctl status vllm-coder.service --no-pager
