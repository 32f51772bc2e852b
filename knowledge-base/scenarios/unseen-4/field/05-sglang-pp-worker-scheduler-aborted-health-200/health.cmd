kubectl exec glm5-pp2-worker-1 -- curl -s -o /dev/null -w '%{http_code} %{time_total}\n' http://127.0.0.1:30000/health
