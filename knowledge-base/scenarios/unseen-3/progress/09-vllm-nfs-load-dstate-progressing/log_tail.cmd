tail -n 60 /scratch/jobs/881234/vllm-405b.log
