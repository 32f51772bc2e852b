tail -n 60 /data/logs/vllm-gpu5.log
