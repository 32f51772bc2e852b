nvidia-smi -q -i 2 -d ECC,ROW_REMAPPER
