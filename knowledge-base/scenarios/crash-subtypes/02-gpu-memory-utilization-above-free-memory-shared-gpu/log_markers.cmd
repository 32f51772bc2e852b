grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /data/vllm/embed.log | tail -30
