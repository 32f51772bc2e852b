tail -n 60 /home/mlops/serve/llama70b.log
