squeue -w gpu-h100-07
