tail -n 60 /home/lena/serve-qwen3-32b.log
