journalctl -u lmdeploy --no-pager -n 25
