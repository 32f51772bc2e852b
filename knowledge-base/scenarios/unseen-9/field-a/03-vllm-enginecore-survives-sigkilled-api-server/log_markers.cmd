grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/ops/serve/qwen-tp2.log | tail -30
