systemctl status sglang.service --no-pager
