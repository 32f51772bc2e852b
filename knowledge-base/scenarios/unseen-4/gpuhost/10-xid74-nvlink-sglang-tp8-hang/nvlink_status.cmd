nvidia-smi nvlink -s -i 5
