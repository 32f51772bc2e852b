tail -n 60 /srv/sglang/logs/llama31-8b.log
