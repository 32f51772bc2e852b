pgrep -fa 'sglang|vllm|launch_server|python|lmdeploy'
