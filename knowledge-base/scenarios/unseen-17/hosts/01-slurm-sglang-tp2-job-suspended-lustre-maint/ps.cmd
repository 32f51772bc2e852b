ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'sglang|launch_server|python|slurmstepd|slurm_script|PID' | grep -v grep
