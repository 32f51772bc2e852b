systemctl status nvidia-fabricmanager --no-pager
