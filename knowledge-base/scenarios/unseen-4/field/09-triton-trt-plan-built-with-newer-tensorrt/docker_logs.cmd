docker logs triton-rerank
