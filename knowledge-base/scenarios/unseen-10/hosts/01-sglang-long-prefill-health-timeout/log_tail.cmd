tail -n 60 /var/log/sglang/llama70b-tp4.log
