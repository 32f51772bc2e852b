curl -sS --max-time 5 http://127.0.0.1:8100/metrics | grep -E '^sglang:(num_running_reqs|num_queue_reqs|gen_throughput|token_usage|prompt_tokens_total|generation_tokens_total|num_requests_total)'
