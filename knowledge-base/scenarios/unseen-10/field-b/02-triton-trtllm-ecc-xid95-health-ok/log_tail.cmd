docker logs --tail 60 -t trtllm-llama31 2>&1
