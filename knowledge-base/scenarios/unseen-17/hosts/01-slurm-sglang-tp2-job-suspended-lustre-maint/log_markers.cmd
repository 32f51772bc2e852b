grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /lustre/home/mkaur/jobs/logs/sgl-48213.log | tail -30
