systemctl status llama-server --no-pager -n 5
