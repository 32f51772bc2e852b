kubectl -n llm describe pod tgi-llama70b-awq-6d9f7c8b5d-x2kqp
