tail -n 60 /var/log/tgi/launcher.log
