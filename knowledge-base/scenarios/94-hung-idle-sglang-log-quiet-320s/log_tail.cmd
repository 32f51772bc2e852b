tail -n 60 /srv/sglang/qwen32b-awq.log
