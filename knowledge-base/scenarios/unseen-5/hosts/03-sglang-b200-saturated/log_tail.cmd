tail -n 60 /data/sglang/logs/llama70b.log
