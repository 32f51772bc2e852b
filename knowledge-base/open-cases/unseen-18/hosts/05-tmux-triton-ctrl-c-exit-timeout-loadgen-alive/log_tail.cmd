tail -n 60 /home/ubuntu/logs/triton-0602.log
