ps -eo pid,ppid,stat,etimes,rss,args
