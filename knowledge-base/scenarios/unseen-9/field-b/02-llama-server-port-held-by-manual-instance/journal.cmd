journalctl -u llama-server -n 40 --no-pager
