set -o pipefail; grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /srv/tgi/logs/tgi-llama70b.log | tail -30
