tail -n 60 /home/ayo/sglang-qwen32b.log
