tail -n 60 /home/svc/sglang-70b.log
