journalctl -u llama-server --no-pager -n 60
