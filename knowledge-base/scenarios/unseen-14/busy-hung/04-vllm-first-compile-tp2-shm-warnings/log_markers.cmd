grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/mlops/logs/vllm-qwen3-30b.log | tail -30
