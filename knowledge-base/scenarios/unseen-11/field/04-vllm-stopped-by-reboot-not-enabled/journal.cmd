journalctl -u vllm-mistral.service --no-pager -n 12
