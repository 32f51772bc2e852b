kubectl exec glm5-pp2-worker-1 -- ps -eo pid,ppid,stat,etimes,rss,args
