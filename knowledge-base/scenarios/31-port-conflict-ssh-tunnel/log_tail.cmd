tail -n 60 /home/mei/sglang-qwen14b.log
