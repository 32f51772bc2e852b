pgrep -fa 'llama-server|sglang|vllm|python'
