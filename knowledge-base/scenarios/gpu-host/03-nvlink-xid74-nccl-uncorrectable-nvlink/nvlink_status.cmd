nvidia-smi nvlink -s -i 1
