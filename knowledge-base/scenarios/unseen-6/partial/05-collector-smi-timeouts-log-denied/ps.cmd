ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|nvidia-smi|PID' | grep -v grep
