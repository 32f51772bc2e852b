ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'vllm|VLLM|python|PID' | grep -v grep
