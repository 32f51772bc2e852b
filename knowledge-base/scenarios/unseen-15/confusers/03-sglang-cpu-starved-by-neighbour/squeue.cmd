squeue -w gpu-node14 -o '%.8i %.9P %.20j %.9u %.2t %.11M %.5C %.14b %R'
