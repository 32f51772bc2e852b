curl -sS --max-time 5 http://127.0.0.1:30000/v1/models
