tail -n 60 /srv/sglang/logs/qwen3-235b.log
