curl -s --max-time 5 http://127.0.0.1:3000/metrics | grep -E '^tgi_(queue_size|batch_current_size|batch_current_max_tokens|request_count|request_success|request_failure)'
