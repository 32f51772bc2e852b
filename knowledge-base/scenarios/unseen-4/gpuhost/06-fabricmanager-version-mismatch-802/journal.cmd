journalctl -u vllm-qwen235 -n 10 --no-pager
