docker logs --tail 30 tgi-support13b
