ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'lmdeploy|turbomind|python|PID' | grep -v grep
