tail -n 60 /data/sglang/ds-v3.log
