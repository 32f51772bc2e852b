tail -n 60 /srv/tgi/logs/tgi-8080.log
