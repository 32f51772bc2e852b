journalctl -u vllm-llama70b -n 5 --no-pager
