ps -o pid,ppid,user,stat,etimes,rss,args -p 588731
