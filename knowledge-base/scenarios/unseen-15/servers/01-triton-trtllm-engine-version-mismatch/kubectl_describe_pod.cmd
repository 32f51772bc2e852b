kubectl -n inference describe pod triton-llama31-8b-7c9d6f5b8-q4xkp | tail -25
