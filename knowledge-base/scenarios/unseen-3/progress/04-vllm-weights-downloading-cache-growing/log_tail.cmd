tail -n 60 /data/logs/vllm-70b.log
