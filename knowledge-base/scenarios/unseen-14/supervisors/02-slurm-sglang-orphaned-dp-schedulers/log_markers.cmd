grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/jdoe/logs/sgl-884213.out | tail -30
