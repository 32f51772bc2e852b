tail -n 60 /home/yuki/qwen-sglang.log
