journalctl -u vllm-qwen14b.service --no-pager --since "2026-11-30 19:45"
