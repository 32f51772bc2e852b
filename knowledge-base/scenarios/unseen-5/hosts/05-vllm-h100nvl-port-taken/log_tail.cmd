tail -n 60 /data/logs/mistral-small.log
