grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /data/logs/vllm-qwen32b.log | tail -30
