curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 http://10.244.3.57:8000/health
