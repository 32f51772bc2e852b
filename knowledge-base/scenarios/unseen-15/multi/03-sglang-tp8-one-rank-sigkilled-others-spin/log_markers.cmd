grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/mlops/logs/sglang-qwen3-235b.log | tail -30
