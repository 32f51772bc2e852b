grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/vlm/logs/lmdeploy-internvl3-38b.log | tail -30
