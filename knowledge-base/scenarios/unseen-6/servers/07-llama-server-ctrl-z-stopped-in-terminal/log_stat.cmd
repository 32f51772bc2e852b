stat -c '%y %s' /home/kai/logs/llama-8080.log
