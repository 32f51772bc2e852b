docker ps -a --filter name=vllm --format 'table {{.Names}}\t{{.Image}}\t{{.Status}}'
