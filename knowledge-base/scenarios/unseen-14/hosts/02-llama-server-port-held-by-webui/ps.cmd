ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama|uvicorn|python|PID' | grep -v grep
