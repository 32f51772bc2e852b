docker logs --tail 60 tgi-llama3 2>&1
