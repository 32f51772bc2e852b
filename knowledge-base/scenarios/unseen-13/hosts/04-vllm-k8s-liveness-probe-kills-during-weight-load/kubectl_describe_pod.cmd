kubectl -n inference describe pod vllm-qwen72b-7c9d6f5b8-k4x2p
