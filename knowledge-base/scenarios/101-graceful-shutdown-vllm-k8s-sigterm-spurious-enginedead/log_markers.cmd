grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /var/log/pods/vllm/qwen3-embed.log | tail -30
