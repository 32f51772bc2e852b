docker logs --tail 40 lmdeploy-qwen
