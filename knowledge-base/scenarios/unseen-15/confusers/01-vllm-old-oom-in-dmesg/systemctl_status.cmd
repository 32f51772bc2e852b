systemctl status vllm.service --no-pager -n 6
