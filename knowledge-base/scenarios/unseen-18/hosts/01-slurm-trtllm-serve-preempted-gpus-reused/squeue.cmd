squeue -w $(hostname -s) -o '%.10i %.12P %.14j %.10u %.3t %.10M %.6D %R'
