grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/mlops/sglang-serve/slurm-771204.out | tail -30
