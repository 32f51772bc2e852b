systemctl status ollama.service --no-pager
