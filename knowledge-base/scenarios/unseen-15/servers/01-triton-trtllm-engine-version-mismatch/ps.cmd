ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'tritonserver|triton_python|text-embeddings|PID' | grep -v grep
