tail -n 60 /srv/sglang/gemma3-12b.log
