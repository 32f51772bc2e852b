tail -n 60 /scratch/rpatel/serve/logs/trtllm-48213.out
