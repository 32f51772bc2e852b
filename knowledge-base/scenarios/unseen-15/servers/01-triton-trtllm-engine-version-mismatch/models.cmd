curl -sS --max-time 5 -X POST http://127.0.0.1:8000/v2/repository/index
