grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /data/logs/vllm-qwen235-ep.log | tail -30
