systemctl status llama-server --no-pager -n 0
