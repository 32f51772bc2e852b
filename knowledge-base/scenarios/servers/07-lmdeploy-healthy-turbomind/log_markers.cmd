grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/lmdeploy/logs/internvl.log | tail -30
