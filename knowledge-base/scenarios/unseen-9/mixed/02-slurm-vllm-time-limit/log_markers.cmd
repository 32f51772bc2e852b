grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/evalteam/logs/slurm-5518273.out | tail -30
