tail -n 60 /var/log/tgi/llama8b.log
