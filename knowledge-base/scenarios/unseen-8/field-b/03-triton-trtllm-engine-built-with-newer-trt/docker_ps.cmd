docker ps -a --filter name=trtllm-qwen
