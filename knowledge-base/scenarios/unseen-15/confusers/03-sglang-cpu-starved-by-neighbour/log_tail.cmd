tail -n 60 /scratch/svc-llm/sglang-88213.log
