ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|python|tee|bash|PID' | grep -v grep
