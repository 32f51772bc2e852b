stat -c '%y %s' /var/log/llama/server.log
