curl -sS --max-time 5 http://127.0.0.1:8002/metrics | grep -E '^nv_inference_(request_success|pending_request_count|exec_count)'
