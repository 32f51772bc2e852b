journalctl -u vllm-qwen.service --since '2026-11-27' --no-pager
