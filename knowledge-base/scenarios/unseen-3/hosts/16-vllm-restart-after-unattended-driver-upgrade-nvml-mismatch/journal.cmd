journalctl -u vllm.service -n 25 --no-pager
