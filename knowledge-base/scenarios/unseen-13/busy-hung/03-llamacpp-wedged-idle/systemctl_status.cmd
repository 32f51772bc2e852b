systemctl status llama-server --no-pager -l | head -20
