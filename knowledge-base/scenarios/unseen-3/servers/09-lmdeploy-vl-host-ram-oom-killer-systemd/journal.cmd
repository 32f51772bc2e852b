journalctl -u lmdeploy-vl --no-pager -n 12
