ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|containerd-shim|PID' | grep -v grep
