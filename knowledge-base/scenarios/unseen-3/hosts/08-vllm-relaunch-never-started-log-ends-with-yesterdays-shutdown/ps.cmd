ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'PID|vllm|VLLM|sglang|launch_server|python|curl' | grep -v grep
