docker ps -a --filter name=tgi --format 'table {{.Names}}\t{{.Image}}\t{{.Status}}'
