ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'vllm|VLLM|python|supervisord|PID' | grep -v grep
