kubectl -n inference describe pod vllm-llama70b-6d9f7c8b5-x2kqp
