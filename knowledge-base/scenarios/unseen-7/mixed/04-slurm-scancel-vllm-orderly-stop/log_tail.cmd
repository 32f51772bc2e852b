tail -n 60 /scratch/mkhan/logs/vllm-481522.out
