systemctl status ollama --no-pager -n 0
