docker inspect vllm-support
