curl -sS --max-time 5 http://127.0.0.1:23333/metrics | grep -E '^lmdeploy:(num_|prompt_tokens_total|generation_tokens_total|gpu_cache_usage_perc)'
