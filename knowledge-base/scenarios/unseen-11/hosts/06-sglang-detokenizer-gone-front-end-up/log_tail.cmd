tail -n 60 /var/log/sglang/sglang.log
