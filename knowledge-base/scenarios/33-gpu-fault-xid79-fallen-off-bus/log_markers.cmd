grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /data/logs/r1-70b-tp8.log | tail -30
