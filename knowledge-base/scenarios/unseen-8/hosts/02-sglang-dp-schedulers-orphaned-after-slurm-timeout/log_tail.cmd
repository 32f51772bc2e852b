tail -n 60 /scratch/mlops/sglang-serve/slurm-771204.out
