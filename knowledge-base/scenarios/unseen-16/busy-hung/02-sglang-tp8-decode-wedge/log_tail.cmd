tail -n 60 /var/log/sglang/qwen235b.log
