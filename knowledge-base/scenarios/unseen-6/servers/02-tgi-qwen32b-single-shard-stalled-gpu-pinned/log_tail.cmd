tail -n 60 /data/tgi/tgi-3000.log
