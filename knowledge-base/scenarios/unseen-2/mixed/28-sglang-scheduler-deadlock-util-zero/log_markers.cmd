grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /opt/sglang/logs/server.log | tail -30
