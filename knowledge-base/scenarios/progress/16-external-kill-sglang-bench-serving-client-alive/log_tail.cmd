tail -n 60 /home/bench/sglang-8b.log
