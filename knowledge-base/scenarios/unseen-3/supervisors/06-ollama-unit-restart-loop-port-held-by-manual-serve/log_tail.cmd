journalctl -u ollama.service --no-pager -n 60
