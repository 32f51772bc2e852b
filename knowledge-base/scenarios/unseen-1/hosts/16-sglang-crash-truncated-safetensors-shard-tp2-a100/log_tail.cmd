tail -n 60 /data/logs/sgl-coder.log
