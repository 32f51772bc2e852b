curl -sS --max-time 5 http://127.0.0.1:30000/metrics | grep -E '^(# (HELP|TYPE) )?sglang:(num_running_reqs|num_queue_reqs|token_usage|gen_throughput|prompt_tokens_total|generation_tokens_total)'
