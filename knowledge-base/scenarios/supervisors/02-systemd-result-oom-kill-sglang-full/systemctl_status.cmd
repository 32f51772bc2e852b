systemctl status --no-pager -l sglang-qwen3.service
