curl -s http://127.0.0.1:8000/v1/models
