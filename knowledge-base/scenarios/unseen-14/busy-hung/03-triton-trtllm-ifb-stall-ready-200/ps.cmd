ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'tritonserver|triton_python|mpirun|PID' | grep -v grep
