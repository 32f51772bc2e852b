docker logs --tail 60 tgi-mistral-small 2>&1
