tail -n 60 /home/ops/serve/qwen-tp2.log
