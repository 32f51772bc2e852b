tail -n 60 /home/kai/logs/llama-8080.log
