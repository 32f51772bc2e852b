ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'llama-server|bench_llama|tmux|PID' | grep -v grep
