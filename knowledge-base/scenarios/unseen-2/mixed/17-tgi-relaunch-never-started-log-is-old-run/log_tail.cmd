tail -n 60 /srv/tgi/logs/mistral-small.log
