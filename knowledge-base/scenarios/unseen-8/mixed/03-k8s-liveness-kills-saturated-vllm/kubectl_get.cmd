kubectl -n inference get pod vllm-llama70b-6d9f7c8b5-x2kqp -o wide
