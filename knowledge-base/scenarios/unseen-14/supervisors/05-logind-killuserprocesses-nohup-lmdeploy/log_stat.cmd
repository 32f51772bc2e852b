stat -c '%y %s %U %n' /home/akim/lmdeploy-qwen32b.log
