tail -n 60 /srv/tgi/logs/tgi-llama70b.log
