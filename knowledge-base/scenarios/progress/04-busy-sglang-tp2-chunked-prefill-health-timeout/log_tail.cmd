tail -n 60 /data/logs/sglang-r1-70b.log
