tail -n 60 /var/log/ollama/ollama.log
