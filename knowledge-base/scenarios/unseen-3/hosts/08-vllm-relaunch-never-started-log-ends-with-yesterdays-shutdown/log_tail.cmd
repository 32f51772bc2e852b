tail -n 60 /var/log/vllm/r1-distill.log
