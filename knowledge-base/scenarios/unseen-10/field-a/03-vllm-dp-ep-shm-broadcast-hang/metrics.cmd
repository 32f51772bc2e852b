curl -s --max-time 5 http://127.0.0.1:8000/metrics | grep -E '^vllm:(num_requests_running|num_requests_waiting|generation_tokens_total|prompt_tokens_total)'
