docker inspect --format '{{json .State}}' vllm-phi4
