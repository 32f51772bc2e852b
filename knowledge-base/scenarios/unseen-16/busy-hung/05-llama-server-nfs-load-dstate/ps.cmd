ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama|PID' | grep -v grep
