journalctl -u sglang-qwen235b.service -n 40 --no-pager
