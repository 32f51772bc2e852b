journalctl -u vllm.service --no-pager -n 40
