tail -n 60 /srv/sglang/logs/llama8b-gpu4.log
