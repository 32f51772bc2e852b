grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/mkhan/logs/vllm-481522.out | tail -30
