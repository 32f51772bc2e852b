docker logs --tail 60 qwen32b 2>&1
