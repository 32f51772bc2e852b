tail -n 60 /srv/lmdeploy/logs/internvl.log
