tail -n 60 /home/dev/vllm.log
