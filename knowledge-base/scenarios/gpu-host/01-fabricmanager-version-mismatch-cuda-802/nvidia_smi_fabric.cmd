nvidia-smi -q | grep -A 3 -i '^    Fabric'
