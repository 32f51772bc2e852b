ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|docker-proxy|benchmark_serving|PID' | grep -v grep
