tail -n 60 /home/ops/sglang-qwen7b.log
