tail -n 60 /home/dev/llama/server.log
