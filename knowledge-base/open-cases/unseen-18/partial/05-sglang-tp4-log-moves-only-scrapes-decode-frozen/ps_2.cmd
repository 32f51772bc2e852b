ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|PID' | grep -v grep
