tail -n 60 /var/log/llama-server/server.log
