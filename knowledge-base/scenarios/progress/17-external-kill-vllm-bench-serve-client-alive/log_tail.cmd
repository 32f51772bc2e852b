tail -n 60 /home/ml/logs/serve-8b.log
