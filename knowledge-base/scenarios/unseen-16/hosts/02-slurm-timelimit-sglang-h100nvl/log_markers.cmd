grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/mtan/sglang/logs/slurm-48213.out | tail -30
