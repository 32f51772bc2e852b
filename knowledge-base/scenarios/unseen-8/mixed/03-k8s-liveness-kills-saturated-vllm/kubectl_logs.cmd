kubectl -n inference logs vllm-llama70b-6d9f7c8b5-x2kqp -c vllm --tail=30
