tail -n 60 /srv/sglang/logs/llama70b-server.log
