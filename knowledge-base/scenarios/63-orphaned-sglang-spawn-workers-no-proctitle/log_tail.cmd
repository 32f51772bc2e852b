tail -n 60 /data/serving/sglang-llama70b.log
