journalctl -u ollama -n 60 --no-pager
