journalctl --no-pager -n 16
