tail -n 60 /scratch/rnguyen/jobs/vllm-eval/slurm-4471823.out
