tail -n 60 /srv/sglang/logs/qwen-vl.log
