tail -n 60 -- /home/ml/sglang.log
