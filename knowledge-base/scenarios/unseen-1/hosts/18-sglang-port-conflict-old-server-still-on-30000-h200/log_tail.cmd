tail -n 60 /home/rk/logs/qwen3-32b.log
