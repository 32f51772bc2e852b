systemctl status llama-server.service --no-pager -l
