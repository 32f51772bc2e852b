nvidia-smi -q -i 5 -d ECC,ROW_REMAPPER
