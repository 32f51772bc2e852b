docker logs --tail 60 tgi-llama8b 2>&1
