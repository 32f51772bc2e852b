docker inspect sglang-qwen3-32b
