tail -n 60 /var/log/sglang/embed.log
