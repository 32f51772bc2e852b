tail -n 60 /data/logs/lmdeploy-qwen32b.log
