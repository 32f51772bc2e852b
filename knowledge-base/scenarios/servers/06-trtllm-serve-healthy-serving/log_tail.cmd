tail -n 60 /data/logs/trtllm-serve-llama70b.log
