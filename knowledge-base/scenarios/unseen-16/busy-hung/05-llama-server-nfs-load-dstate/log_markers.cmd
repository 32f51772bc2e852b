grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already|error|listening|loading model' /var/log/llama-server/server.log | tail -30
