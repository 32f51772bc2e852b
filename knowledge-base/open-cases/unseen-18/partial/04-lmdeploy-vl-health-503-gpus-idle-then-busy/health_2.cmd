curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 http://127.0.0.1:23333/health
