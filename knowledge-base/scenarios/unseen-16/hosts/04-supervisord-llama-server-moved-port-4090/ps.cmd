ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama-server|python|PID' | grep -v grep
