tail -n 60 /data/logs/sglang-ds.log
