ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'trtllm-serve|mpi4py|prte|python|PID' | grep -v grep
