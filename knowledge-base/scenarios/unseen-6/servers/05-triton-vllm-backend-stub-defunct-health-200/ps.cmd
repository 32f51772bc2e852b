ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'triton|PID' | grep -v grep
