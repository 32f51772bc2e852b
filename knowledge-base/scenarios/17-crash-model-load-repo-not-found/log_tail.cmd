tail -n 60 /home/omar/llama.log
