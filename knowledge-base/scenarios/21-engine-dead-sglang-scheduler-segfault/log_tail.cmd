tail -n 60 /var/log/sglang/coder32b.log
