tail -n 60 /var/log/sglang/server.log
