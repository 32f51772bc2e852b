systemctl status sglang-qwen72b.service --no-pager -l
