ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|python|socat|PID' | grep -v grep
