kubectl -n inference describe pod trtllm-llama31-8b-6d9f7c8b5-q2x7k
