docker logs --tail 20 tgi-qwen32b
