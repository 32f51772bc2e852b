docker ps --filter name=vllm-support
