systemctl status tritonserver.service --no-pager
