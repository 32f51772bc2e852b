set -o pipefail; grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /mnt/shared/logs/vllm/llama31-70b-awq.log | tail -30
