docker logs --tail 12 vllm-qwen3
