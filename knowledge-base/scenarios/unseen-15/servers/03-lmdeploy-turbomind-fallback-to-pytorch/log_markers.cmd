grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /var/log/lmdeploy/qwen32b.log | tail -30
