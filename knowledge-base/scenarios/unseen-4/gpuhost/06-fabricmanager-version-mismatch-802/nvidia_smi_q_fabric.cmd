nvidia-smi -q | grep -A5 -E '^GPU |Fabric' | head -14
