tail -n 60 /home/mlops/lmdeploy-qwen.log
