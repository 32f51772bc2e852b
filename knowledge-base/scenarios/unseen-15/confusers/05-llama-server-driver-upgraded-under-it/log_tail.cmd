tail -n 60 /home/ml/logs/llama-server.log
