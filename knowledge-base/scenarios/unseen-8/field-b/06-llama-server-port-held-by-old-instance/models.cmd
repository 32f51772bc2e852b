curl -s localhost:8080/v1/models
