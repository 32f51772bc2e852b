grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /var/lib/docker/containers/7c1e04b2d98f/vllm-vl.log | tail -30
