kubectl get pods -l app=glm5-pp2 -o wide
