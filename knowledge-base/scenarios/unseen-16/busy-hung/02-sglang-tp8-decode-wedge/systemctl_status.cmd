systemctl status sglang-qwen235b.service --no-pager -l
