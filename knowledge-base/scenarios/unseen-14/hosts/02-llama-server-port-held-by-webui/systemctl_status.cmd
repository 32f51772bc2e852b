systemctl status llama-server --no-pager -l
