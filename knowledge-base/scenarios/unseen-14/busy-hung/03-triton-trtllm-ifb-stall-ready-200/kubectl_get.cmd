kubectl -n llm-serving get pods -o wide
