journalctl -u vllm-qwen.service --no-pager -n 25
