tail -n 60 /data/logs/r1-70b-tp8.log
