grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/omar/llama.log | tail -30
