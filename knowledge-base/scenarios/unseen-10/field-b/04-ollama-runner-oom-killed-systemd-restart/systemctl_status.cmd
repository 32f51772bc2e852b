systemctl status ollama --no-pager
