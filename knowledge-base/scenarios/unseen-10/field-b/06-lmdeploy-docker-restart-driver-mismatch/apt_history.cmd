grep -A4 "2026-07-21" /var/log/apt/history.log
