stat -c '%y %s' /home/ana/llama-bench/llama-server.log
