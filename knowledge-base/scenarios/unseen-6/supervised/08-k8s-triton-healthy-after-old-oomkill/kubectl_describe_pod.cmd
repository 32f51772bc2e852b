kubectl -n llm-serving describe pod triton-trtllm-0
