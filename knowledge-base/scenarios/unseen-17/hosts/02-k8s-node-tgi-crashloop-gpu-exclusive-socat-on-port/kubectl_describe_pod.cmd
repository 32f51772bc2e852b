kubectl -n llm describe pod tgi-llama-8b-6c9f7d8b5-x2kqp
