kubectl -n llm describe pod vllm-qwen3-30b-7c9d6b8f4-q2zxk
