tail -n 60 /srv/triton/logs/triton.log
