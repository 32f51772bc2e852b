journalctl -u ollama --no-pager --since '-70min'
