journalctl -u llama-server --no-pager -n 60 -o short
