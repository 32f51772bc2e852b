grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /root/logs/dsv3-0324.log | tail -30
