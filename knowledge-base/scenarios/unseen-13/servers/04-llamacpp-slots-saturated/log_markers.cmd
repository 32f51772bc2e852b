grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|error|Killed|address already|server is listening|model loaded|failed' /srv/llama/logs/qwen-coder.log | tail -30
