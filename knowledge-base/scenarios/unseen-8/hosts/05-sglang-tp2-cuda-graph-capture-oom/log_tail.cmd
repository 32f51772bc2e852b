tail -n 60 /var/log/sglang/qwen72b.log
