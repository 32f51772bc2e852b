ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'lmdeploy|python|PID' | grep -v grep
