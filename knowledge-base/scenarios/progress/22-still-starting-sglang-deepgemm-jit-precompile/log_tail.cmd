tail -n 60 /data/logs/dsv3-0324.log
