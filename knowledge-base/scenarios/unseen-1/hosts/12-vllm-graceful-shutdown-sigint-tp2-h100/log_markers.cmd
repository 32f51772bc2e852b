grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/ppatel/vllm-qwen3.log | tail -30
