grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/sglang/logs/qwen25vl.log | tail -30
