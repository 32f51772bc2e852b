ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama-server|containerd-shim|PID' | grep -v grep
