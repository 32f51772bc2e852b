head -n 12 /home/akim/lmdeploy-qwen32b.log
