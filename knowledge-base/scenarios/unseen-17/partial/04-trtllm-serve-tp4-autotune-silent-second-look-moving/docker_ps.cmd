docker ps --format '{{.Names}}\t{{.Image}}\t{{.Status}}\t{{.Ports}}'
