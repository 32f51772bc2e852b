squeue -w gpu-n07 -o '%.10i %.9P %.20j %.8u %.2t %.10M %.6D %R'
