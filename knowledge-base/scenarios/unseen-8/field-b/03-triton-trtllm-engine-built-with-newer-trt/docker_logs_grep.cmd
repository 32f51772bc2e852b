docker logs trtllm-qwen 2>&1 | grep -E 'TensorRT-LLM\]\[(ERROR|INFO\] Engine)|failed to load'
