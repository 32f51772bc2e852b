tail -n 60 /scratch/mtan/sglang/logs/slurm-48213.out
