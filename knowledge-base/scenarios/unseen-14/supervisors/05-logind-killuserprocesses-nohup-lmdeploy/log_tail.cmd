tail -n 60 /home/akim/lmdeploy-qwen32b.log
