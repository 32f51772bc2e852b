tail -n 60 /var/log/sglang/qwen25vl-32b.log
