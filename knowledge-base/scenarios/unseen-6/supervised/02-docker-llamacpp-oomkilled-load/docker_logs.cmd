docker logs --tail 40 llama70b
