ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'lmdeploy|supervisord|PID' | grep -v grep
