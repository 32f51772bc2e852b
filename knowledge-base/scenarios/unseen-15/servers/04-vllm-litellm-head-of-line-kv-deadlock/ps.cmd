ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'vllm|VLLM|litellm|PID' | grep -v grep
