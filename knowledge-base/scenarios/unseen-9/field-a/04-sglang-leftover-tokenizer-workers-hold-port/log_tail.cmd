tail -n 60 /srv/sglang/logs/qwen3-32b.log
