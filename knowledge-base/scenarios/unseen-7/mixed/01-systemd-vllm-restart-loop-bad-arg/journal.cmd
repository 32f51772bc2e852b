journalctl -u vllm-vl.service --no-pager -n 40
