grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/sglang/logs/llama70b-server.log | tail -30
