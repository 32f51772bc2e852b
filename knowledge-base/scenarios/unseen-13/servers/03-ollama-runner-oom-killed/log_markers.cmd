journalctl -u ollama --no-pager | grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|killed|terminated|address already' | tail -30
