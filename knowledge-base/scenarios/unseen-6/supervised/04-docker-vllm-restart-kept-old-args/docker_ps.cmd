docker ps --filter name=vllm-llama
