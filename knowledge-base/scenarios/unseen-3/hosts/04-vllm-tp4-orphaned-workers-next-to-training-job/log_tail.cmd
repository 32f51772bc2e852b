tail -n 60 /home/svc-inference/logs/llama70b-tp4.log
