grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/jobs/881234/vllm-405b.log | tail -30
