docker ps --filter name=qwen32b
