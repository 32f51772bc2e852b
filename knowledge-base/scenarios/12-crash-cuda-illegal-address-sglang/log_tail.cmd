tail -n 60 /var/log/sglang/dsv2-lite.log
