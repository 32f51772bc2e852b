ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'tritonserver|triton_python|PID' | grep -v grep
