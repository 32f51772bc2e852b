grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /data/runs/gemma3-27b/server.log | tail -30
