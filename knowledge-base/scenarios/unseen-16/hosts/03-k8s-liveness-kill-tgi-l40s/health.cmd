curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 http://10.42.3.17:80/health
