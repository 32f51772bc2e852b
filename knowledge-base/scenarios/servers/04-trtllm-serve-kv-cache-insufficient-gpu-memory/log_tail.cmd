tail -n 60 /data/logs/trtllm-serve.log
