tail -n 60 -- /data/logs/lmdeploy.log
