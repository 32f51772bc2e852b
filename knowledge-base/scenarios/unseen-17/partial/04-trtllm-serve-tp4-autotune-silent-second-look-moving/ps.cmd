ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'trtllm|mpi4py|orted|containerd-shim|PID' | grep -v grep
