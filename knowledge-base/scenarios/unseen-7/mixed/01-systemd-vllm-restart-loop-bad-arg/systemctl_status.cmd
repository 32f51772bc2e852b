systemctl status vllm-vl.service --no-pager -l
