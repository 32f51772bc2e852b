grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/ml/serve/vllm-qwen14b.log | tail -30
