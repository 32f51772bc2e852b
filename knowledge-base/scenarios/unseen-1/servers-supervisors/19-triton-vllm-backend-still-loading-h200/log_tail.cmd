tail -n 60 /var/log/triton/triton.log
