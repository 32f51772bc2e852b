curl -s -X POST http://127.0.0.1:8000/v2/repository/index
