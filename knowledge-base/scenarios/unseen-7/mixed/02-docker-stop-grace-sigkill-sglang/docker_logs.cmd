docker logs --timestamps --tail 40 sglang-qwen3-32b
