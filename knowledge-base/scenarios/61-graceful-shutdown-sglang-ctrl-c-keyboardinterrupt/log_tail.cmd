tail -n 60 /home/raj/sglang/qwen3-14b-tp2.log
