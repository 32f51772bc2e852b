grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/akim/lmdeploy-qwen32b.log | tail -30
