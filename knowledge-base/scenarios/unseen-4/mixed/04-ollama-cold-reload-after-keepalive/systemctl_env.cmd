systemctl show ollama -p Environment
