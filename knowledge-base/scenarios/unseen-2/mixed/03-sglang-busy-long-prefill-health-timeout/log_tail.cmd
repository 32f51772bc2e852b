tail -n 60 /var/log/sglang/kimi-long.log
