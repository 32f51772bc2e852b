grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/lmdeploy/qwen2-7b.log | tail -30
