ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'ollama|llama-server|python|PID' | grep -v grep
