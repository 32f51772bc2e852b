grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/tgi/logs/mistral-small.log | tail -30
