stat -c '%y' /home/ana/llama-server.log
