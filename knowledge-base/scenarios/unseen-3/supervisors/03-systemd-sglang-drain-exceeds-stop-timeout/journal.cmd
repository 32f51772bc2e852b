journalctl -u sglang.service --no-pager -n 40
