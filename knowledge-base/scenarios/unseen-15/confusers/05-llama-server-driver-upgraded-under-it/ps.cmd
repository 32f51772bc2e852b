ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama-server|tmux|PID' | grep -v grep
