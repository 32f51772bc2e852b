tail -n 60 /home/ana/llama-bench/llama-server.log
