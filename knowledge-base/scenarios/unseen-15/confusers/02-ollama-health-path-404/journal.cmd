journalctl -u ollama --no-pager -n 40
