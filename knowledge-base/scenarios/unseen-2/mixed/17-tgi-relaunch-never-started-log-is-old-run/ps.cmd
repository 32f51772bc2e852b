ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|PID|PID' | grep -v grep
