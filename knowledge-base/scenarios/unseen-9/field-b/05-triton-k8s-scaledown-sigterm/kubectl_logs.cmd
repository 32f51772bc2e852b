kubectl -n search logs -f triton-reranker-6d9f7c5b8-x2kqp
