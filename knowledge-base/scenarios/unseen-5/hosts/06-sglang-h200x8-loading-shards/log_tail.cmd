tail -n 60 /scratch/sglang/dsv3.log
