tail -n 4 /var/log/apt/history.log
