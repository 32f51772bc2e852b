head -n 6 /proc/1059/status
