ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'slurm|srun|trtllm|orted|mpi4py|PID' | grep -v grep
