tail -n 60 /shared/logs/dsr1/node0.log
