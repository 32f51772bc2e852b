curl -s --max-time 5 http://127.0.0.1:8002/metrics | grep -E '^nv_(trt_llm_(request|general|kv_cache_block|inflight_batcher)_metrics|inference_(request_success|request_failure))'
