ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'tritonserver|triton_python|containerd-shim|PID' | grep -v grep
