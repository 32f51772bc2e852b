curl -s --max-time 5 http://127.0.0.1:8000/metrics | grep -E '^vllm:(num_requests_(running|waiting)|kv_cache_usage_perc|prompt_tokens_total|generation_tokens_total|request_success_total)'
