grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /opt/serving/logs/llama31-8b-128k.log | tail -30
