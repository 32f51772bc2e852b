grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /shared/logs/dsr1/node0.log | tail -30
