tail -n 60 /srv/sglang/qwen3-235b.log
