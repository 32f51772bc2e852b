tail -n 60 /srv/sglang/logs/sglang.log
