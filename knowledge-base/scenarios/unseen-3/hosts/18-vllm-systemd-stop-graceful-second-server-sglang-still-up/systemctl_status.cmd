systemctl status vllm.service --no-pager
