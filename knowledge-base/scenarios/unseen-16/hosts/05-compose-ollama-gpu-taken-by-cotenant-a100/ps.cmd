ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'ollama|python|PID' | grep -v grep
