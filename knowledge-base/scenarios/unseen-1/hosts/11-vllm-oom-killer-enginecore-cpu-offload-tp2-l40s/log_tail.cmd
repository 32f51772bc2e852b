tail -n 60 /data/run/vllm-70b.log
