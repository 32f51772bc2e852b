tail -n 60 /var/log/lmdeploy/api_server.log
