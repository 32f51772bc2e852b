journalctl -u ollama --no-pager --since "2026-11-03 14:20"
