journalctl -u ollama --since "2026-05-19 14:29" --no-pager
