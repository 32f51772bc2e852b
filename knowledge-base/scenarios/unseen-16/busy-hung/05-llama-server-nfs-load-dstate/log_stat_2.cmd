stat -c '%s %y' /var/log/llama-server/server.log
