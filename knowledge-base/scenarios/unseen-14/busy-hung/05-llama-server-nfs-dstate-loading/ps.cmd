ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama-server|PID' | grep -v grep
