tail -n 60 /workspace/logs/sglang.log
