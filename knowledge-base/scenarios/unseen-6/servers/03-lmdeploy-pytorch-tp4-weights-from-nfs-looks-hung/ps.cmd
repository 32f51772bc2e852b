ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'lmdeploy|multiprocessing|PID' | grep -v grep
