tail -n 60 /home/ml/logs/gemma.log
