ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|launch_server|PID' | grep -v grep
