tail -n 60 /home/ops/sglang-qwen14b.log
