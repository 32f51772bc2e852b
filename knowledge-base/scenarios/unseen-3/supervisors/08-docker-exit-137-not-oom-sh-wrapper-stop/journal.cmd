journalctl -u docker.service --no-pager --since "2026-10-21 12:45"
