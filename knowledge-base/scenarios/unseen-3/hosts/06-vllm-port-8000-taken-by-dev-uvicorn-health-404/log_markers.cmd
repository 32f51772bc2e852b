grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/priya/logs/vllm-qwen7b.log | tail -30
