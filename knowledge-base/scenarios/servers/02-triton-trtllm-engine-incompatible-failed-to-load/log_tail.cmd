tail -n 60 /var/log/triton/trtllm.log
