ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|python|PID' | grep -v grep
