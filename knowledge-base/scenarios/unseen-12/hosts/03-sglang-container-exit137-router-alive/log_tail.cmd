docker logs --tail 60 sglang-qwen3-32b 2>&1
