curl -s http://127.0.0.1:8080/metrics | grep -E '^tgi_(request_count|request_success|request_failure|queue_size|batch_current_size|batch_current_max_tokens|batch_max_total_tokens)'
