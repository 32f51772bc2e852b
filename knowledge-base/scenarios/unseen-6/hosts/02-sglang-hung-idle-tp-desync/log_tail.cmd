tail -n 60 /var/log/sglang/qwen25-72b.log
