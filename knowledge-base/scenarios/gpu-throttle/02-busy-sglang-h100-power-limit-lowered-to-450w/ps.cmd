ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|vllm|VLLM|launch_server|text-generation|python|PID' | grep -v grep
