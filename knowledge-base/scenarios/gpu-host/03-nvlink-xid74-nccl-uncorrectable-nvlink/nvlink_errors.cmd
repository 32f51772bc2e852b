nvidia-smi nvlink -e -i 1
