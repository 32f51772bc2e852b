tail -n 60 /data/logs/sglang/qwen3-235b.log
