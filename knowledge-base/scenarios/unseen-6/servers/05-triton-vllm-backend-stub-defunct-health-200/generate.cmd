curl -sS --max-time 30 -w '\n%{http_code} %{time_total}\n' -X POST http://127.0.0.1:8000/v2/models/vllm_model/generate -d '{"text_input":"ping","parameters":{"stream":false,"max_tokens":1}}'
