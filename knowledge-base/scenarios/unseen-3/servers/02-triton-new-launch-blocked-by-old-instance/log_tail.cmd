tail -n 60 /srv/triton/logs/nemo-v2.log
