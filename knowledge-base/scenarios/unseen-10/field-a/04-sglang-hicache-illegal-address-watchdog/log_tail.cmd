tail -n 60 /var/log/sglang/qwen3-14b-hicache.log
