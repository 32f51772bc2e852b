kubectl -n llm-serving logs triton-llama70b-6d9f7c5b8-q7x2m --tail=60
