tail -n 60 /var/log/ollama/serve.log
