docker ps -a --format 'table {{.Names}}\t{{.Status}}\t{{.Ports}}' --filter name=vllm-gpu
