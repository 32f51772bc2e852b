systemctl status lmdeploy --no-pager -l
