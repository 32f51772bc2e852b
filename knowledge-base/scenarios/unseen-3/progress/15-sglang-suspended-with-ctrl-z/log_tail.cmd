tail -n 60 /home/ubuntu/sglang-run.log
