tail -n 60 /home/jlin/sglang/gemma27b.log
