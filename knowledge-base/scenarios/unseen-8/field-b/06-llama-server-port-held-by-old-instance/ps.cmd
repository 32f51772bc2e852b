ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'PID|llama'
