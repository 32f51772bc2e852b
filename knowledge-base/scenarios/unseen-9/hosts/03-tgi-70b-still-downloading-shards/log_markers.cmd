grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /var/log/tgi/launcher.log | tail -30
