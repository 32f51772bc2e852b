grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|error|Killed|address already|model loaded|listening on' /home/ml/logs/llama-server.log | tail -30
