tail -n 60 /var/log/sglang/llama70b.log
