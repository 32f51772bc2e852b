journalctl -u ollama --no-pager -n 60
