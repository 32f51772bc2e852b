grep -n -E 'server_args|Shutting down|launch_server|fired up|Uvicorn running|Traceback|Error|error|Killed|CANCELLED|address already' /scratch/rpatel/serve/logs/trtllm-48213.out | tail -30
