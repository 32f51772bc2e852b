nvidia-smi -q | grep -i -A 2 fabric
