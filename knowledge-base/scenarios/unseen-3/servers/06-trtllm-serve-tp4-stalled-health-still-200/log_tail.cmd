tail -n 60 /srv/trtllm/logs/qwen3-235b.log
