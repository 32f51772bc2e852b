journalctl -u vllm-llama70b.service --no-pager -n 30
