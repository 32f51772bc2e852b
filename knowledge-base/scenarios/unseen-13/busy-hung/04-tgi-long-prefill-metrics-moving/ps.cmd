ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|docker-proxy|python|PID' | grep -v grep
