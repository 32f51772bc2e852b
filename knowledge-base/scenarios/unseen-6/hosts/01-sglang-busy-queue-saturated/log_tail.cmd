tail -n 60 /var/log/sglang/llama33-70b.log
