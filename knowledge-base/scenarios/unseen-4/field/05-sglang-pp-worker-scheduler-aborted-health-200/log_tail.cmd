kubectl logs glm5-pp2-worker-1 --tail=46
