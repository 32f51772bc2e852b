set -o pipefail; grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /opt/llm/logs/qwen3-32b.log | tail -30
