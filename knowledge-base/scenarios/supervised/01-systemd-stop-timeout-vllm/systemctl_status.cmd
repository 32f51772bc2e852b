systemctl status 220871 --no-pager -n 20
