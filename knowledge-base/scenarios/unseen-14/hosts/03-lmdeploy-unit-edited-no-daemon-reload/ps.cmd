ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'lmdeploy|litellm|python|PID' | grep -v grep
