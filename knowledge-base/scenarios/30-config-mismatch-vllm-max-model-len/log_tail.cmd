tail -n 60 /opt/serving/qwen14b.log
