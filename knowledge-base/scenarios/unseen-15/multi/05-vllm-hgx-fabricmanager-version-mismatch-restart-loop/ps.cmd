ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'vllm|python|PID' | grep -v grep
