ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'launch_server|sglang|python|PID' | grep -v grep
