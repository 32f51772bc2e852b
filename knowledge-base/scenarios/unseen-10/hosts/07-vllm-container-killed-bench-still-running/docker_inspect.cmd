docker inspect --format '{{json .State}}' vllm-qwen72b
