journalctl --no-pager --since '2025-09-16 19:37:04' --until '2025-09-16 19:47:04'
