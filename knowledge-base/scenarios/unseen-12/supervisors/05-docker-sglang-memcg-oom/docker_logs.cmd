docker logs --tail 26 llm-sglang-1
