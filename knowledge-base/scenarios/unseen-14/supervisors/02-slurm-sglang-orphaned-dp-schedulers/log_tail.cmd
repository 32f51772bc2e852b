tail -n 60 /scratch/jdoe/logs/sgl-884213.out
