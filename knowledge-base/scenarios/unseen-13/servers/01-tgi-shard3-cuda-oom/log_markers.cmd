docker logs tgi-llama70b 2>&1 | grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' | tail -30
