tail -n 60 /scratch/svc-llm/vllm-70b-awq.log
