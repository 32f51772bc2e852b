kubectl -n llm-serving describe pod triton-llama70b-6d9f7c5b8-q7x2m
