nvidia-smi nvlink -e -i 2
