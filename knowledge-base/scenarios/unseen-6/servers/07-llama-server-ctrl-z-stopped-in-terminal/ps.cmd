ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama|30211|PID' | grep -v grep
