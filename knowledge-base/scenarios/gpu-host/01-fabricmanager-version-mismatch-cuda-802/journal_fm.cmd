journalctl -u nvidia-fabricmanager --no-pager -b
