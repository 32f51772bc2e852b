tail -n 60 /mnt/shared/logs/vllm/llama31-70b-awq.log
