pgrep -fa 'sglang|vllm|launch_server|python|ollama|llama-server'
