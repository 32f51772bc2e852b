ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'text-generation|text_generation|python|PID' | grep -v grep
