pgrep -fa 'ollama|sglang|vllm|python'
