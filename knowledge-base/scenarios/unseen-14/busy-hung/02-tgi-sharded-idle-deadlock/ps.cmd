ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|PID' | grep -v grep
