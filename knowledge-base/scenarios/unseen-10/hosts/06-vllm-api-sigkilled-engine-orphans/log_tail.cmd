tail -n 60 /home/svcllm/logs/vllm-8000.log
