ps -eo pid,ppid,stat,etimes,rss,args | grep -iE 'vllm|python|PID' | grep -v grep
