tail -n 8 /var/log/unattended-upgrades/unattended-upgrades.log
