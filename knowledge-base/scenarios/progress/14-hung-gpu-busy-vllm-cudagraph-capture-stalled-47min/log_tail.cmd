tail -n 60 /srv/logs/qwen3-32b.log
