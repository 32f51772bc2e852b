ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'vllm|VLLM|PID' | grep -v grep
