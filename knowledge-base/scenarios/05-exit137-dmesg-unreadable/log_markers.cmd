grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/kim/mistral24b/serve.log | tail -30
