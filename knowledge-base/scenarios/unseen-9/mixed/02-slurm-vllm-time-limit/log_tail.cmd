tail -n 60 /scratch/evalteam/logs/slurm-5518273.out
