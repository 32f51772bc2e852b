grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/vllm-logs/vllm-qwen3-235b.log | tail -30
