tail -n 60 /var/log/vllm/dsr1-distill.log
