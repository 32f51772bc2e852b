kubectl -n vision logs qwen-vl-sglang-7b8c6d5f9-hx2mp | grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' | tail -30
