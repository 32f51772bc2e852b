grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /var/log/sglang/qwen3-32b.log | tail -30
