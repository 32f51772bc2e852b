tail -n 60 /data/logs/sglang-dsv31.log
