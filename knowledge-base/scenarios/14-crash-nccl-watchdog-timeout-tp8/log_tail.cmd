tail -n 60 /scratch/llama405b/sglang.log
