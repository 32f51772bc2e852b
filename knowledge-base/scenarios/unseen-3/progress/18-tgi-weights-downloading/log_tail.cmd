tail -n 60 /var/log/tgi/mistral-small.log
