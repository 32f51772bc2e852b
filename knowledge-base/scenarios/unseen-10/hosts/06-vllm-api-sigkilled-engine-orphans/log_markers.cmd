grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/svcllm/logs/vllm-8000.log | tail -30
