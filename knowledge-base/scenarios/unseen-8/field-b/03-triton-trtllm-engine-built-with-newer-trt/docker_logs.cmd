docker logs --tail 60 trtllm-qwen 2>&1
