tail -n 60 /data/sglang/logs/serve.log
