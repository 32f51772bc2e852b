grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/jlin/sglang/gemma27b.log | tail -30
