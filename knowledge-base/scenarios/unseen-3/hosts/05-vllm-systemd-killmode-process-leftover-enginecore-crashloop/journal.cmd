journalctl -u vllm-coder.service -n 40 --no-pager
