docker logs --tail 80 vllm-support 2>&1
