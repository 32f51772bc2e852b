top -b -n 1 -w 160 | head -16
