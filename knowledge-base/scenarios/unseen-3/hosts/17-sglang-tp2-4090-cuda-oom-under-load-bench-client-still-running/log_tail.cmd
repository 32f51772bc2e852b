tail -n 60 /home/kenji/logs/sglang-qwen3-30b.log
