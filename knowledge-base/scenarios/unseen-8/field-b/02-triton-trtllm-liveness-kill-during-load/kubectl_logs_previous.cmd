kubectl -n inference logs trtllm-llama31-8b-6d9f7c8b5-q2x7k -c triton --previous
