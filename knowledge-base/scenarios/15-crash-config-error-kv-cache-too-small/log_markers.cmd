grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /opt/llm/logs/llama8b-128k.log | tail -30
