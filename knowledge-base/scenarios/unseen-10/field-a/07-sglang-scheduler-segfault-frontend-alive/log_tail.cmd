tail -n 60 /srv/sglang/logs/qwen25vl.log
