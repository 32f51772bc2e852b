tail -n 60 /srv/sglang/llama70b.log
