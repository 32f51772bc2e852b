journalctl -u docker.service --no-pager --since '2026-12-03 13:00'
