systemctl status vllm-dsv4.service --no-pager -n 8
