docker logs --tail 60 sglang-llama70b 2>&1
