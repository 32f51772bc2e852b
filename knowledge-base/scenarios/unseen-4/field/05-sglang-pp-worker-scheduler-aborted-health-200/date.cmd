kubectl exec glm5-pp2-worker-1 -- bash -c 'date -Is; uptime'
