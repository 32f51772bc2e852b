top -b -n 1 -o %CPU | head -12
