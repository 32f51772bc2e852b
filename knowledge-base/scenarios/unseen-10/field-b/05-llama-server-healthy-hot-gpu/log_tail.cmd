journalctl -u llama-server -n 60 --no-pager
