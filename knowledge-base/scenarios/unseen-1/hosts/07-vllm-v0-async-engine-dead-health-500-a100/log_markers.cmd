grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /workspace/logs/vllm.log | tail -30
