kubectl -n inference exec vllm-llama70b-6d9f7c8b5-x2kqp -c vllm -- curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 http://127.0.0.1:8000/health
