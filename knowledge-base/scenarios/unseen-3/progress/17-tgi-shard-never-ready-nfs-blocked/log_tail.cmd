tail -n 60 /var/log/tgi/qwen32b.log
