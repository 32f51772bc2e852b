ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama|sleep 1|PID' | grep -v grep
