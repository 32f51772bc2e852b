curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 -H 'Content-Type: application/json' -d '{"text_input":"ping","max_tokens":1}' http://127.0.0.1:8000/v2/models/ensemble/generate
