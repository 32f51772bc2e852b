grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/svc-llm/sglang-88213.log | tail -30
