tail -n 60 /var/log/sglang/prod.log
