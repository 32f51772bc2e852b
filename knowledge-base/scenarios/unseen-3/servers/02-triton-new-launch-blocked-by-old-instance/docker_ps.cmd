docker ps -a --filter name=triton --format 'table {{.Names}}\t{{.Image}}\t{{.Status}}'
