journalctl -u ollama --no-pager --since '-30min'
