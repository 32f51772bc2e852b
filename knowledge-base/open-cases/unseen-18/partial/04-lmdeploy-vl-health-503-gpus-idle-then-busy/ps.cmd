ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'lmdeploy|tmux|tee|caption_batch|PID' | grep -v grep
