sleep 8; curl -s --max-time 1 http://127.0.0.1:8000/metrics | grep -E '^vllm:(num_requests_(running|waiting)|generation_tokens_total|prompt_tokens_total)'
