tail -n 60 /shared/jobs/ds-r1/slurm-48213.out
