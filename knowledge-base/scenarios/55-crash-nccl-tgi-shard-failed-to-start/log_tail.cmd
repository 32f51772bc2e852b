tail -n 60 /srv/tgi/mistral-small.log
