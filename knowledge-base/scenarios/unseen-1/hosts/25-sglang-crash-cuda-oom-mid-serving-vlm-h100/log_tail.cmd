tail -n 60 /home/ubuntu/sglang-vl.log
