curl -sS --max-time 5 http://127.0.0.1:11434/api/version
