docker logs qwen3-api
