tail -n 60 /var/log/lmdeploy/internvl.log
