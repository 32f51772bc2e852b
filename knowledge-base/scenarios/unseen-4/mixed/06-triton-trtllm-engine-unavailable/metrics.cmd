curl -s http://127.0.0.1:8002/metrics | grep -E '^nv_inference_(request_success|request_failure|count)'
