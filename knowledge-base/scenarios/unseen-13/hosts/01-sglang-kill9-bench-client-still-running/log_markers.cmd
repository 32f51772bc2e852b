grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /data/logs/sglang-llama70b-fp8.log | tail -30
