ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|supervisord|python|PID' | grep -v grep
