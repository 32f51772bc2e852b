ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'tritonserver|launch_triton|mpirun|python_backend|PID' | grep -v grep | cut -c1-200
