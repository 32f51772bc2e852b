ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|supervisord|resource_tracker|PID' | grep -v grep
