ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'tritonserver|triton_python|python|PID' | grep -v grep
