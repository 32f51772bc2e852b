tail -n 60 /var/log/supervisor/vllm-stdout.log
