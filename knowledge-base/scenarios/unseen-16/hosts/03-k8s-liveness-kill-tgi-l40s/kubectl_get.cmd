kubectl -n llm get pod tgi-llama70b-awq-6d9f7c8b5d-x2kqp -o wide
