tail -n 60 /data/logs/sglang-llama70b-fp8.log
