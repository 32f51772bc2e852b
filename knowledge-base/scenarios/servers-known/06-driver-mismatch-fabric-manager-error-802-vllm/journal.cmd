journalctl -u nvidia-fabricmanager -n 20 --no-pager
