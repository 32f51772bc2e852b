tail -n 60 /var/log/tgi/llama31-70b.log
