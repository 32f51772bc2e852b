tail -n 60 /data/logs/sglang-dsv3.log
