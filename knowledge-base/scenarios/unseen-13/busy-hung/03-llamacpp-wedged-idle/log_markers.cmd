journalctl -u llama-server --no-pager -o short | grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already|server is listening|model loaded' | tail -30
