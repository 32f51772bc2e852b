kubectl -n inference logs vllm-qwen72b-7c9d6f5b8-k4x2p -c vllm --previous --tail=40
