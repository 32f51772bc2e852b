tail -n 60 /home/pat/vllm.out
