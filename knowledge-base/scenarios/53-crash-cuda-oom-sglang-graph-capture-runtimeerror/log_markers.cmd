grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/mei/runs/qwen25-32b/server.log | tail -30
