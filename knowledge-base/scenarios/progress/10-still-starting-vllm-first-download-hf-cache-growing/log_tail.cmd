tail -n 60 /data/logs/qwen72b.log
