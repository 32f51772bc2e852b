tail -n 60 /home/svc/vllm-mixtral.log
