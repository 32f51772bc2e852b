ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|python|jupyter|PID' | grep -v grep
