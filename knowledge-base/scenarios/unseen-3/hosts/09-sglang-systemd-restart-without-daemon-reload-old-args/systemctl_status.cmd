systemctl status sglang-llama.service --no-pager
