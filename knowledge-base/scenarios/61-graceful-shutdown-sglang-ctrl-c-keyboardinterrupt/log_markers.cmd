grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /home/raj/sglang/qwen3-14b-tp2.log | tail -30
