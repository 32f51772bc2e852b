tail -n 60 /var/log/sglang/qwen3-30b.log
