tail -n 60 /root/sglang-server.log
