tail -n 60 /var/log/sglang/qwen3-32b.log
