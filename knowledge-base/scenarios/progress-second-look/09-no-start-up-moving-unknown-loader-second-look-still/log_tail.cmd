tail -n 60 /home/mkim/slurm-logs/trtllm-48230.out
