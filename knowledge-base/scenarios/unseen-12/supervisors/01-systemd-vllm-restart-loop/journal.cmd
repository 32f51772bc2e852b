journalctl -u vllm.service --since '-30min' --no-pager | tail -45
