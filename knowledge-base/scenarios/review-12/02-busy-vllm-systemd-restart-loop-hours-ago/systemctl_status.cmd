systemctl status vllm.service --no-pager -l
