grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/svc-llm/vllm-70b-awq.log | tail -30
