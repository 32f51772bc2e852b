docker logs --tail 60 tgi-qwen32b 2>&1
