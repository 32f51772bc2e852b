systemctl status sglang-prod --no-pager -l
