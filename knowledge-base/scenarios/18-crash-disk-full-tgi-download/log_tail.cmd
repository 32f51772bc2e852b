tail -n 60 /var/log/tgi/qwen72b.log
