tail -n 60 /var/log/triton/server.log
