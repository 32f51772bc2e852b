docker logs --tail 60 tgi-llama70b 2>&1
