journalctl -u vllm.service -n 20 --no-pager
