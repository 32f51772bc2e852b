tail -n 60 /var/log/tgi/tgi.log
