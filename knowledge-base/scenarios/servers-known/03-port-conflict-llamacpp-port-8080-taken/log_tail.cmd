tail -n 60 -- /home/ml/llama.log
