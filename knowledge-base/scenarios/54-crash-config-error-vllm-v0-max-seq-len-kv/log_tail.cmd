tail -n 60 /opt/serving/logs/llama31-8b-128k.log
