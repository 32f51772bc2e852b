ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|launch_server|python|containerd-shim|PID' | grep -v grep
