grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/vllm/qwen3-32b/server.log | tail -30
