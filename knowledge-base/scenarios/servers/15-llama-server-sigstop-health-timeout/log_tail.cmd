tail -n 60 /home/ana/llama-server.log
