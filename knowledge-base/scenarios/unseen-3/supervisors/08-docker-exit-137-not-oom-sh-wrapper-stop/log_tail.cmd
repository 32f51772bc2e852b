docker logs --tail 60 vllm-mistral 2>&1
