ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'ollama|PID' | grep -v grep
