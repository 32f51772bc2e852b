grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/ana/vllm-llama8b.log | tail -30
