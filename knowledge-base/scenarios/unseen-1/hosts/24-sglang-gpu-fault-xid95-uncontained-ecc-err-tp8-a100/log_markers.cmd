grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /sgl-workspace/logs/llama405b.log | tail -30
