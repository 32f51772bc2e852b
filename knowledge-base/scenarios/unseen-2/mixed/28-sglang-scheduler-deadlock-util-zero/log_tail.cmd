tail -n 60 /opt/sglang/logs/server.log
