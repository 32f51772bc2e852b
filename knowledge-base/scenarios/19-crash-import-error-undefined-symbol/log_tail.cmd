tail -n 60 /srv/sglang/server.log
