grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/llm/logs/llama70b-fp8.log | tail -30
