docker ps -a --filter name=qwen3-api
