ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'trtllm-serve|mpi4py|PID' | grep -v grep
