pgrep -fa 'text-generation|sglang|vllm|launch_server|python'
