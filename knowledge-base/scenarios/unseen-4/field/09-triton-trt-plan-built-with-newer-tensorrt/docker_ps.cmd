docker ps -a --filter name=triton-rerank
