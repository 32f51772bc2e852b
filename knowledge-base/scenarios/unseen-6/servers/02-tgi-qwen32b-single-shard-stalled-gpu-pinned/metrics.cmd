curl -sS --max-time 5 http://127.0.0.1:9000/metrics | grep -E '^(# TYPE )?tgi_(queue_size|batch_current|batch_max|request_count|request_success|request_failure)'
