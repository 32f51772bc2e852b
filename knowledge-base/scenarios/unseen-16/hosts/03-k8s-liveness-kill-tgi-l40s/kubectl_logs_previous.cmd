kubectl -n llm logs tgi-llama70b-awq-6d9f7c8b5d-x2kqp -c tgi --previous --tail=40
