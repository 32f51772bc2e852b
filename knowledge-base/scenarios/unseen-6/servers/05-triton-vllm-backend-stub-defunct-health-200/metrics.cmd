curl -sS --max-time 5 http://127.0.0.1:8002/metrics | grep -E '^nv_(inference_request_(success|failure)|inference_count|gpu_utilization|gpu_memory_used_bytes)'
