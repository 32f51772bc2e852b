tail -n 60 /var/log/llama/llama-coder.log
