journalctl -u docker.service --no-pager --since "2026-11-30 16:20"
