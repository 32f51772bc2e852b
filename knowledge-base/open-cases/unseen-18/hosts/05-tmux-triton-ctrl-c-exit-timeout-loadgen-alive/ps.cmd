ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'tritonserver|triton_python_backend_stub|python|PID' | grep -v grep
