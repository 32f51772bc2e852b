tail -n 60 /srv/sglang/qwen3-32b.log
