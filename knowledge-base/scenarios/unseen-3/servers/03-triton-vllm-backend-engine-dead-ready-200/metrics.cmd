curl -s http://127.0.0.1:8002/metrics | grep -E '^nv_inference_request_(success|failure)'
