grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/llama405b/sglang.log | tail -30
