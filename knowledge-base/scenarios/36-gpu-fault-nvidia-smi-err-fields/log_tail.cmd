tail -n 60 /var/log/tgi/mistral24b.log
