tail -n 60 /srv/triton/logs/server.log
