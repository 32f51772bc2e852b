grep -B1 -A3 nvidia /var/log/apt/history.log | tail -20
